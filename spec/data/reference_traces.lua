-- Trace hashes of this module's reference runs, committed so that a build
-- whose results differ (another compiler, processor or C library, or a
-- change in the code) fails instead of agreeing with itself. When a change
-- is meant to alter results, check why the hash moved, then re-base with
--   lua5.4 tools/reference-hash.lua --update
-- and commit this file with the change, saying so in its message.
-- Each is a 32-bit FNV-1a over values written exactly, with every random
-- choice from the portable generator of spec/support/prng.lua.
return {
  -- spec/support/trace_batch.lua: mixed grid work (400 queries)
  batch = "aa166efe",
  -- spec/support/reference_runs.lua: the house world, 24 wanderers, 200 ticks
  house = "78f7f86f",
  -- spec/support/reference_runs.lua: 40 units, random orders, 150 ticks
  units = "befef00b",
}
