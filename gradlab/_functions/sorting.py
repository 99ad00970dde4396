"""gradlab.<fn> functions: sorting (see gradlab/_functions/__init__.py)."""
__all__ = []
