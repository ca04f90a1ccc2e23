--- bench/lib/maps.lua: the benchmark maps expected in ../shared/maps, in the
-- order of the maps README; every benchmark runs and prints them in this
-- order (names without ".map").
return {
  "arena", "arena2", "den011d", "brc202d", "AR0011SR", "bloodvenomfalls",
  "8room_000", "32room_000", "maze512-1-0", "random512-10-0",
  "Berlin_0_256", "Berlin_0_1024", "clusters512", "rooms16",
}
