-- Archery's face coordinates follow seed 002: y grows DOWNWARDS (the seed computes
-- `normalizedY = (location.y − center.y) / radius` in screen coordinates and draws an arrow at
-- `center.y + normalizedY × radius`). Until now Reelwork wrote y upwards. Every stored coordinate
-- changes sign here, so old and new jobs read alike: the detected arrows' rows, each archery
-- result document (its arrows and the face's homography, whose y row maps pixels to face y), and
-- each confirmation (the corrections as read and the confirmed end). Distances, scores and clock
-- positions (0° at 12 o'clock, clockwise) name the same places as before and are left as they are.

UPDATE archery_arrows SET normalized_y = 0 - normalized_y WHERE normalized_y IS NOT NULL;

-- `items` (a JSON array of objects) with each number at `key` negated; anything else unchanged.
CREATE FUNCTION pg_temp.negated(items jsonb, key text) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(item -> key) = 'number'
                                   THEN jsonb_set(item, ARRAY[key], to_jsonb(0 - (item ->> key)::numeric))
                                   ELSE item END ORDER BY position), '[]'::jsonb)
    FROM jsonb_array_elements(items) WITH ORDINALITY AS t(item, position)
$$;

-- A homography (9 numbers, row-major) composed with y ↦ −y: its second row negated.
CREATE FUNCTION pg_temp.y_row_negated(h jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(jsonb_agg(CASE WHEN position IN (4, 5, 6) AND jsonb_typeof(value) = 'number'
                                   THEN to_jsonb(0 - (value #>> '{}')::numeric) ELSE value END ORDER BY position), '[]'::jsonb)
    FROM jsonb_array_elements(h) WITH ORDINALITY AS t(value, position)
$$;

UPDATE results SET result = jsonb_set(result, '{arrows}', pg_temp.negated(result -> 'arrows', 'normalizedY'))
WHERE sport = 'archery' AND jsonb_typeof(result -> 'arrows') = 'array';

UPDATE results SET result = jsonb_set(result, '{face,homography}', pg_temp.y_row_negated(result #> '{face,homography}'))
WHERE sport = 'archery' AND jsonb_typeof(result #> '{face,homography}') = 'array'
  AND jsonb_array_length(result #> '{face,homography}') = 9;

UPDATE archery_confirmations
SET corrections = CASE WHEN jsonb_typeof(corrections) = 'array' THEN pg_temp.negated(corrections, 'y') ELSE corrections END,
    confirmed = CASE WHEN jsonb_typeof(confirmed -> 'arrows') = 'array'
                     THEN jsonb_set(confirmed, '{arrows}', pg_temp.negated(confirmed -> 'arrows', 'normalizedY'))
                     ELSE confirmed END;
