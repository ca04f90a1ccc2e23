--- wayfinder.world.classes: the house world's three Lua types. Each concern
-- module of the world adds its methods to these tables; the metatables
-- name the types ("wayfinder.World", "wayfinder.Object", "wayfinder.Ctx")
-- and say what a value is when printed.
local M = {}

--- The names of the built-in trees: the standard door portal tree and the
-- route tree person:route_to pushes.
M.DOOR_TREE = "wayfinder.door"
M.ROUTE_TREE = "wayfinder.route_to"

--- Methods of a world (world:...).
M.World = {}
--- Methods of an object or person (object:..., person:...).
M.Object = {}
--- Methods of the frame context handed to behaviors (ctx:...).
M.Ctx = {}

M.world_mt = {
  __index = M.World,
  __name = "wayfinder.World",
  __tostring = function(w)
    return ("wayfinder.World (%dx%d tiles, %d objects, tick %d)"):format(w.width, w.height,
      #w.object_list, w.tick_count)
  end,
}

M.object_mt = {
  __index = M.Object,
  __name = "wayfinder.Object",
  __tostring = function(o)
    return ("wayfinder.Object %d (%s%s)"):format(o.id, o.type,
      o.removed and ", removed" or "")
  end,
}

M.ctx_mt = {
  __index = M.Ctx,
  __name = "wayfinder.Ctx",
  __tostring = function(c)
    local p, f = c.person, c.frame
    if not p then return "wayfinder.Ctx (idle)" end
    return ("wayfinder.Ctx (person %d, frame '%s')"):format(p.id, f and f.tree or "?")
  end,
}

return M
