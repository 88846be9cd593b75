"""PLANE's splits: the GOoD and One-IT vocabulary partition (``partition``), split algorithms over
integer-coded items (``vocabulary``) and every regime (``regimes``)."""
