std = "lua54"
max_line_length = 100
exclude_files = { "build/", ".git/" }
files["spec/"] = { std = "+busted" }
