"""The table: what happens beside the board — input events turned into moves, the game
journal, the tag registry and the catalogue of tagged items."""
