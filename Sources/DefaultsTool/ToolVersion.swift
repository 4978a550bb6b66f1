/// What `defaults --version` prints: the Defaults library release the tool is built with.
let toolVersion = "1.0.0"
