"""gradlab.<fn> functions: pointwise (see gradlab/_functions/__init__.py)."""
__all__ = []
