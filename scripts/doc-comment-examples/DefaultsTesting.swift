// What the doc comments of DefaultsTesting import: they show tests.
import DefaultsTesting
import Testing
