"""Shape, views and indexing: views, joins and splits, indexing and scatters, diagonals, triangles, copies."""
