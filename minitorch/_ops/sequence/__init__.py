"""Sequence models' ops: embeddings, recurrent cells and layers, attention."""
