// What the doc comments of DefaultsPostgres import, and use without declaring it: a connection's configuration and a store.
import Defaults
import DefaultsPostgres
import PostgresNIO

var configuration: PostgresClient.Configuration { PostgresClient.Configuration(host: "db.internal", username: "app", password: nil, database: "settings", tls: .disable) }
var store: Defaults.PostgresRemoteStore { try! Defaults.PostgresRemoteStore(configuration: configuration, namespace: "web") }
