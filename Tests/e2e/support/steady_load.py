"""A steady stream of GraphQL requests from a few keep-alive clients, bounded in count and time,
that records every outcome: what a rollout must not disturb."""

import threading
import time
from dataclasses import dataclass, field

import httpx


@dataclass
class LoadResult:
    sent: int = 0
    failures: list = field(default_factory=list)
    max_latency: float = 0.0

    def summary(self) -> str:
        return (f"sent {self.sent}, failed {len(self.failures)}, "
                f"max latency {self.max_latency * 1000:.1f} ms")


class SteadyLoad:
    """`clients` threads, each one httpx.Client, sending `body_for(n)` to `url` until `stop()`,
    `max_requests` in all, or `max_seconds`, whichever comes first."""

    def __init__(self, url: str, body_for, clients: int = 4, max_requests: int = 20_000,
                 max_seconds: float = 30.0, timeout: float = 10.0):
        self.url, self.body_for, self.timeout = url, body_for, timeout
        self.max_requests, self.max_seconds = max_requests, max_seconds
        self.result = LoadResult()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._threads = [threading.Thread(target=self._run, daemon=True) for _ in range(clients)]

    def start(self) -> "SteadyLoad":
        self._deadline = time.monotonic() + self.max_seconds
        for thread in self._threads:
            thread.start()
        return self

    def stop(self) -> LoadResult:
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=self.timeout + 5)
        return self.result

    def _next_number(self):
        with self._lock:
            if self._stopping.is_set() or self.result.sent >= self.max_requests \
                    or time.monotonic() >= self._deadline:
                return None
            self.result.sent += 1
            return self.result.sent

    def _run(self) -> None:
        with httpx.Client(timeout=self.timeout) as client:
            while (number := self._next_number()) is not None:
                started = time.monotonic()
                try:
                    response = client.post(self.url, content=self.body_for(number),
                                           headers={"Content-Type": "application/json"})
                    outcome = None if response.status_code == 200 and "errors" not in response.json() \
                        else f"#{number}: {response.status_code} {response.text[:200]}"
                except (httpx.HTTPError, ValueError) as error:
                    outcome = f"#{number}: {type(error).__name__}: {error}"
                elapsed = time.monotonic() - started
                with self._lock:
                    self.result.max_latency = max(self.result.max_latency, elapsed)
                    if outcome:
                        self.result.failures.append(outcome)
