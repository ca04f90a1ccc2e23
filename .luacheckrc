std = "lua51+lua54"
max_line_length = 150  -- the floor-division rewrites lengthened a few lines
exclude_files = { "build/", ".git/" }
files["spec/"] = { std = "+busted" }
files["examples/love/"] = { std = "+love" }
