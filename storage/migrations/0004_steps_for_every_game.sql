-- One log format for every game: a 'resolve' row of The Number written before the game protocol,
--   {"numbers": {"0": "513", "2": "087"}}
-- becomes the generic stored step (bot/core/fold.py) with the reason and timeouts every game stores,
--   {"step": {"0": {"number": "513"}, "2": {"number": "087"}}, "reason": "legacy", "timed_out": []}
-- A seat absent from "numbers" (missing that turn) stays absent from "step". Which seats timed out was not
-- kept then, so the list is empty. json() keeps each part JSON rather than a quoted string.

UPDATE actions
SET payload = json_object(
        'step', json((SELECT json_group_object(n.key, json_object('number', n.value))
                      FROM json_each(actions.payload, '$.numbers') AS n)),
        'reason', 'legacy',
        'timed_out', json_array())
WHERE kind = 'resolve'
  AND json_type(payload, '$.numbers') = 'object'
  AND json_type(payload, '$.step') IS NULL;
