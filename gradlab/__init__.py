"""gradlab"""
