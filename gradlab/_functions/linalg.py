"""gradlab.<fn> functions: linalg (see gradlab/_functions/__init__.py)."""
__all__ = []
