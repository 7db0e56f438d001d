-- +goose Up
-- Solutions are stored in blocks of consecutive IDs (see puzzle_tables.sql);
-- each puzzle's solutions view joins a block with the slot numbers below its
-- length to give one row per solution. A block holds at most 1,024.
CREATE TABLE block_slots (
    slot INTEGER PRIMARY KEY
);
WITH RECURSIVE s(slot) AS (SELECT 0 UNION ALL SELECT slot + 1 FROM s WHERE slot < 1023)
INSERT INTO block_slots (slot) SELECT slot FROM s;

-- +goose Down
DROP TABLE block_slots;
