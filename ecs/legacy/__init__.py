"""The previous engine, kept while the one compiled engine (``components/``, ``systems/``)
takes over area by area; deleted when nothing imports it any more."""
