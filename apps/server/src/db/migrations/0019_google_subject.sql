-- Google sign-in finds the account by Google's subject id (issue 25 point 3): the e-mail of a Google account can change.
ALTER TABLE "users" ADD COLUMN "google_subject" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_google_subject_key" ON "users" USING btree ("google_subject");