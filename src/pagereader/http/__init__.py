"""What the two HTTP servers share: authentication, origin checks, error answers, bounded JSON."""
