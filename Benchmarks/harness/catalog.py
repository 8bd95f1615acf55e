"""A realistic GraphQL answer of about 64 KiB for the gzip scenario: a page of movies with titles,
people, overviews, ratings and image URLs drawn from a seeded generator, so every run serves the
same bytes and the body compresses the way real JSON does (repeated keys, varied values) rather
than the way padding does."""

import json
import random

_SEED = 20240611
_WORDS = ("night river silver empire garden winter letter shadow harbor city summer stranger "
          "mountain promise island dream engine paper glass storm orchard signal echo lantern "
          "frontier memory velvet harvest comet ember meadow voyage atlas canyon tide".split())
_FIRST = ("Ada Bruno Chiara Dmitri Elena Farid Greta Hiro Ines Jonas Keiko Luca Maya Nils Olga "
          "Pablo Quinn Rosa Sami Tara Ugo Vera Wim Xenia Yusuf Zoe".split())
_LAST = ("Alvarez Brandt Costa Dubois Eriksen Fischer Garcia Hoffmann Ito Jensen Kowalski Laurent "
         "Moreau Novak Okafor Petrov Rossi Sato Tanaka Ueda Varga Weber Yilmaz Zimmermann".split())
_GENRES = ["drama", "comedy", "thriller", "documentary", "animation", "romance", "science-fiction", "crime"]


def _title(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS).capitalize() for _ in range(rng.randint(1, 4)))


def _person(rng: random.Random) -> dict:
    return {"name": f"{rng.choice(_FIRST)} {rng.choice(_LAST)}", "id": f"p{rng.randrange(10**6):06d}"}


def _overview(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(18, 40))]
    return " ".join(words).capitalize() + "."


def _movie(rng: random.Random, index: int) -> dict:
    key = f"{rng.getrandbits(64):016x}"
    return {
        "key": key,
        "title": _title(rng),
        "year": rng.randint(1950, 2024),
        "genres": rng.sample(_GENRES, rng.randint(1, 3)),
        "runtimeMinutes": rng.randint(72, 190),
        "rating": {"average": round(rng.uniform(2.0, 9.6), 1), "votes": rng.randint(12, 250_000)},
        "director": _person(rng),
        "cast": [_person(rng) for _ in range(rng.randint(2, 5))],
        "overview": _overview(rng),
        "posterUrl": f"https://cdn.example.com/posters/{key}/w500.jpg",
        "available": rng.random() < 0.8,
        "position": index,
    }


def catalog_json(limit: int = 64 * 1024) -> str:
    """The largest page of movies whose compact JSON stays within `limit` bytes."""
    rng = random.Random(_SEED)
    movies: list[dict] = []
    body = _page(movies)
    while True:
        movies.append(_movie(rng, len(movies)))
        candidate = _page(movies)
        if len(candidate) > limit:
            return body
        body = candidate


def _page(movies: list[dict]) -> str:
    return json.dumps({"data": {"listMoviesByGenre": movies}}, separators=(",", ":"))
