import Defaults
import Foundation

Defaults[.launchCount] += 1
Defaults[.theme] = Defaults[.launchCount].isMultiple(of: 2) ? .dark : .light
Defaults[.window].width += 10
Defaults[.homepage] = URL(string: "https://example.com/start?from=demo#top")

print("launchCount: \(Defaults[.launchCount])")
print("theme:       \(Defaults[.theme])")
print("window:      \(Defaults[.window].width)×\(Defaults[.window].height)")
print("homepage:    \(Defaults[.homepage]?.absoluteString ?? "none")")
print("stored form: \(UserDefaults.standard.object(forKey: "window") ?? "nothing")")
// Linux Foundation saves nothing on its own; the library will do this for you once durable persistence lands.
UserDefaults.standard.synchronize()
