UPDATE picollo_metadata SET value = @version WHERE key = 'schema_version'
