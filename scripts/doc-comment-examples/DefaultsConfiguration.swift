// What the doc comments of DefaultsConfiguration import, and use without declaring it: a service's provider.
import Configuration
import DefaultsConfiguration
import Foundation

var provider: DefaultsProvider { DefaultsProvider(suite: UserDefaults(suiteName: "com.example.service")!) }
