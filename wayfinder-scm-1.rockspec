rockspec_format = "3.0"
package = "wayfinder"
version = "scm-1"
source = {
   url = "git+file://./",
}
description = {
   summary = "Movement for game characters: navcell grids, optimal search, behaviors",
   detailed = [[
wayfinder is a Lua module (5.1 to 5.4 and LuaJIT) with a C core that moves game characters
through a world: navcell grids with passability classes, clearance and
rasterized obstructions, A* and jump point search, and a Lua scripting side.
]],
   license = "MIT",
   labels = { "pathfinding", "games", "astar", "jps" },
}
dependencies = {
   "lua >= 5.1, < 5.5",
}
build = {
   type = "builtin",
   modules = {
      ["wayfinder.core"] = {
         sources = {
            "src/avoid.c",
            "src/cpd.c",
            "src/field.c",
            "src/formation.c",
            "src/orca.c",
            "src/walker.c",
            "src/goal.c",
            "src/graph.c",
            "src/graph_build.c",
            "src/graph_search.c",
            "src/grid.c",
            "src/hier.c",
            "src/jplanes.c",
            "src/jps.c",
            "src/mapio.c",
            "src/motion.c",
            "src/placement.c",
            "src/open.c",
            "src/queue.c",
            "src/raster.c",
            "src/rectplan_room.c",
            "src/rectplan.c",
            "src/rectplan_smooth.c",
            "src/search.c",
            "src/smooth.c",
            "src/steer.c",
            "src/sweep.c",
            "src/terrain.c",
            "src/units.c",
            "src/vertex.c",
            "src/trig.c",
            "src/lua/lcheck.c",
            "src/lua/lcore.c",
            "src/lua/lformation.c",
            "src/lua/lgraph.c",
            "src/lua/lgrid.c",
            "src/lua/lpathtable.c",
            "src/lua/lrectplan.c",
            "src/lua/lqueue.c",
            "src/lua/lsteer.c",
            "src/lua/lwalker.c",
            "src/lua/lsweep.c",
            "src/lua/lunits.c",
         },
         incdirs = { "src" },
      },
   },
}
