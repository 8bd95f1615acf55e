// Pure HTTP/1.1 parsing and serialization: no I/O.
