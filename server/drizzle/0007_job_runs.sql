-- Database-backed job runs (issue 13 §2, decision 040): every API node polls; a run (job name + run key, e.g. the
-- UTC day) is claimed by exactly one node with a lease, finished once, and taken over when its node died mid-run.
CREATE TABLE "job_runs" (
	"name" text NOT NULL,
	"run_key" text NOT NULL,
	"node" text NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	CONSTRAINT "job_runs_pkey" PRIMARY KEY ("name", "run_key")
);
