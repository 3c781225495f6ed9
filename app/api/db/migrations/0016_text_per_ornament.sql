-- Issue 19, part 1: each ornament of the pair has its own optional line. A design's text was one line
-- printed on both ornaments ({ line, typeface, colour }); it becomes { left, right }, that line on each.
UPDATE "previews" SET "text" = jsonb_build_object('left', "text", 'right', "text") WHERE "text" ? 'line';
--> statement-breakpoint
UPDATE "cart_items" SET "metadata" = jsonb_set("metadata", '{text}', jsonb_build_object('left', "metadata"->'text', 'right', "metadata"->'text')) WHERE "metadata"->'text' ? 'line';
--> statement-breakpoint
UPDATE "design_drafts" SET "body" = jsonb_set("body", '{text}', jsonb_build_object('left', "body"->'text', 'right', "body"->'text')) WHERE "body"->'text' ? 'line';
--> statement-breakpoint
UPDATE "design_shares" SET "body" = jsonb_set("body", '{text}', jsonb_build_object('left', "body"->'text', 'right', "body"->'text')) WHERE "body"->'text' ? 'line';
--> statement-breakpoint
UPDATE "checkout_sessions" SET "lines" = (
  SELECT jsonb_agg(CASE WHEN e.l->'text' ? 'line' THEN jsonb_set(e.l, '{text}', jsonb_build_object('left', e.l->'text', 'right', e.l->'text')) ELSE e.l END ORDER BY e.i)
  FROM jsonb_array_elements("checkout_sessions"."lines") WITH ORDINALITY AS e(l, i)
) WHERE EXISTS (SELECT 1 FROM jsonb_array_elements("checkout_sessions"."lines") AS x(l) WHERE x.l->'text' ? 'line');
--> statement-breakpoint
UPDATE "orders" SET "lines" = (
  SELECT jsonb_agg(CASE WHEN e.l->'text' ? 'line' THEN jsonb_set(e.l, '{text}', jsonb_build_object('left', e.l->'text', 'right', e.l->'text')) ELSE e.l END ORDER BY e.i)
  FROM jsonb_array_elements("orders"."lines") WITH ORDINALITY AS e(l, i)
) WHERE EXISTS (SELECT 1 FROM jsonb_array_elements("orders"."lines") AS x(l) WHERE x.l->'text' ? 'line');
