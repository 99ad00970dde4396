"""gradlab.<fn> functions: shape (see gradlab/_functions/__init__.py)."""
__all__ = []
