"""gradlab.<fn> functions: core (see gradlab/_functions/__init__.py)."""
__all__ = []
