"""Each benchmark's generation steps, one subpackage per benchmark; its builder
(``compsem.builders.NAME``) puts them together. Not named ``compsem/NAME`` at the top: a folder
``compsem/plane`` in the working directory would shadow the Hub id ``compsem/plane`` in
``load_dataset``."""
