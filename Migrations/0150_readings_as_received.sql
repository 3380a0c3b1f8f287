-- A readings batch that arrived gzip-compressed is kept as the stream the SDK sent, with the
-- `readings` text left empty: the JSON of a 1,000-sample batch is about 330 KB, its gzip a fifth
-- of that, and every byte stored is written into the log, copied into this file by a checkpoint
-- and kept. Inspection inflates it.
ALTER TABLE wl_readings ADD COLUMN readings_gzip BLOB;
