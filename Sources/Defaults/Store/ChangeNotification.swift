import Foundation

/// A change already applied, to tell its observers once every lock is released.
struct ChangeNotification {
	let name: String
	let observers: [ObserverTable.Observer]
	let oldObject: Any?
	let newObject: Any?

	func deliver() {
		let prior = RawChange(name: name, oldObject: oldObject, newObject: newObject, isPrior: true)
		for observer in observers where observer.wantsPrior {
			observer.deliver(prior)
		}

		let change = RawChange(name: name, oldObject: oldObject, newObject: newObject, isPrior: false)
		for observer in observers {
			observer.deliver(change)
		}
	}
}
