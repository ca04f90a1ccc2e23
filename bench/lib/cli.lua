--- bench/lib/cli.lua: the start-up the map benchmarks share: the
-- repository root, the command line (a maps directory, --maps, --help and
-- each program's own options) and loading the module.
local M = {}

--- The repository root for a program in `script_dir` (bench/): the parent
-- directory, written as short as possible. Puts the root's lua/ and build/
-- on the module paths, so require("wayfinder") finds this build.
function M.setup(script_dir)
  local up, last = script_dir:match("^(.*)/([^/]+)$")
  local root
  if last and last ~= "." and last ~= ".." then
    root = up == "" and "/" or up
  elseif not last and script_dir ~= "." and script_dir ~= ".." then
    root = "."
  else
    root = script_dir .. "/.."
  end
  package.path = ("%s/lua/?.lua;%s/lua/?/init.lua;%s"):format(root, root, package.path)
  package.cpath = ("%s/build/?.so;%s"):format(root, package.cpath)
  return root
end

--- Parses argv into opts: `dir` (default ../shared/maps beside the root),
-- `only` (from --maps a,b or --maps=a,b, names without ".map"), and the
-- program's own options: own["--name"] = function(opts, next_arg) that
-- returns how many arguments it took after the option (0 or 1), or nil and
-- a message. Returns opts, or nil and a message (nil, nil for --help).
function M.parse(argv, root, own)
  local opts = {}
  local i = 1
  while i <= #argv do
    local a = argv[i]
    if a == "--maps" or a:match("^%-%-maps=") then
      local list = a:match("^%-%-maps=(.*)$")
      if not list then
        i = i + 1
        list = argv[i]
      end
      if not list or list == "" then return nil, "--maps needs a list of map names" end
      opts.only = {}
      for name in list:gmatch("[^,%s]+") do
        opts.only[#opts.only + 1] = (name:gsub("%.map$", ""))
      end
    elseif a == "--help" or a == "-h" then
      return nil, nil
    elseif own[a] then
      local took, err = own[a](opts, argv[i + 1])
      if not took then return nil, err end
      i = i + took
    elseif a:match("^%-") then
      return nil, "unknown option '" .. a .. "'"
    elseif opts.dir then
      return nil, "more than one maps directory given ('" .. opts.dir .. "', '" .. a .. "')"
    else
      opts.dir = a
    end
    i = i + 1
  end
  opts.dir = opts.dir or (root == "." and "../shared/maps" or root .. "/../shared/maps")
  return opts
end

--- parse's result, or the end of the program: the usage and status 0 for
-- --help, the message, the usage and status 2 for a bad command line.
function M.options_or_exit(program, usage, opts, err)
  if opts then return opts end
  if err then
    io.stderr:write(program, ": ", err, "\n", usage, "\n")
    os.exit(2)
  end
  print(usage)
  os.exit(0)
end

--- require("wayfinder"), or the end of the program with status 1.
function M.load_wayfinder(program)
  local loaded, wayfinder = pcall(require, "wayfinder")
  if not loaded then
    io.stderr:write(program, ": cannot load wayfinder (run `make build` first):\n",
      tostring(wayfinder), "\n")
    os.exit(1)
  end
  return wayfinder
end

--- Whether a file can be opened for reading.
function M.exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end

return M
