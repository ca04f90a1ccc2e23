-- LÖVE settings for the wayfinder example (love examples/love).
function love.conf(t)
  t.identity = "wayfinder-example"
  t.window.title = "wayfinder: house world and RTS map"
  t.window.width = 1024
  t.window.height = 640
  t.window.vsync = 1
  t.modules.audio = false   -- no sound; also lets it run where there is no audio device
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
