//! Opening books and test positions: built-in sets and EPD / FEN / PGN / SAN loaders.
