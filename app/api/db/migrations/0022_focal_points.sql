ALTER TABLE "photos" ADD COLUMN "focal_x" real;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "focal_y" real;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_focal_point_check" CHECK (("photos"."focal_x" is null and "photos"."focal_y" is null) or ("photos"."focal_x" between 0 and 1 and "photos"."focal_y" between 0 and 1));