INSERT INTO picollo_metadata (key, value) VALUES ('application', @application), ('schema_version', @version)
