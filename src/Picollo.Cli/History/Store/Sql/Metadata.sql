SELECT key, value FROM picollo_metadata
