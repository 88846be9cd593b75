"""PLANE's splits: the GOoD and One-IT vocabulary partition (``partition``) and its local search
(``search``), split algorithms over integer-coded items (``vocabulary``), balancing labels and
inference types (``balancing``) and every regime (``regimes``)."""
