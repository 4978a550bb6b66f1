import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/**
`@ObservableDefault(key)` on `var name: Type` in an `@Observable` class.

Generates accessors that read and write `Defaults[key]`, report reads to the
Observation registrar with `access(keyPath:)`, and a private link property
that forwards every change of the key (from anywhere) to
`withMutation(keyPath:)`.
*/
public struct ObservableDefaultMacro: AccessorMacro, PeerMacro {
	/// A property the macro can expand, with the pieces the expansion needs.
	private struct Property {
		let name: TokenSyntax
		let key: ExprSyntax

		var linkName: TokenSyntax { "_defaultsLink_\(name.trimmed)" }
	}

	public static func expansion(
		of node: AttributeSyntax,
		providingAccessorsOf declaration: some DeclSyntaxProtocol,
		in context: some MacroExpansionContext
	) throws -> [AccessorDeclSyntax] {
		guard let property = validate(node, declaration, in: context, reporting: true) else {
			return placeholderAccessors(for: declaration, in: context)
		}

		let connect: DeclSyntax = """
			\(property.linkName).connect(\(property.key)) { [weak self] in
				self?.withMutation(keyPath: \\.\(property.name)) {}
			}
			"""

		return [
			"""
			get {
				\(connect)
				access(keyPath: \\.\(property.name))
				return Defaults[\(property.key)]
			}
			""",
			"""
			set {
				\(connect)
				Defaults[\(property.key)] = newValue
			}
			""",
		]
	}

	public static func expansion(
		of node: AttributeSyntax,
		providingPeersOf declaration: some DeclSyntaxProtocol,
		in context: some MacroExpansionContext
	) throws -> [DeclSyntax] {
		// Diagnostics are reported once: by the accessor expansion for variables, here for
		// anything else (the compiler does not ask accessor macros about other declarations).
		let reportsHere = !declaration.is(VariableDeclSyntax.self)
		guard let property = validate(node, declaration, in: context, reporting: reportsHere) else {
			return []
		}

		return [
			"private let \(property.linkName) = DefaultsMacros._ObservableDefaultLink()",
		]
	}

	/**
	Accessors for a property the macro refused, so that the compiler does not
	add "did not produce a non-observing accessor" to the one error reported.

	Only where accessors are valid Swift: a single `var` with a type, no
	accessors of its own and `@ObservationIgnored` (else `@Observable` adds
	its own). An initial value is accepted beside an `init` accessor. The
	bodies never run: the reported error stops the build.
	*/
	private static func placeholderAccessors(
		for declaration: some DeclSyntaxProtocol,
		in context: some MacroExpansionContext
	) -> [AccessorDeclSyntax] {
		guard
			let variable = declaration.as(VariableDeclSyntax.self),
			// @Observable's storage stays stored: its `init` accessor initializes it.
			!isObservationStorage(of: variable, in: context),
			variable.bindingSpecifier.tokenKind == .keyword(.var),
			has("ObservationIgnored", variable),
			variable.bindings.count == 1,
			let binding = variable.bindings.first,
			binding.pattern.is(IdentifierPatternSyntax.self),
			binding.typeAnnotation != nil,
			binding.accessorBlock == nil
		else {
			return []
		}

		let accessors: [AccessorDeclSyntax] = [
			#"get { fatalError("@ObservableDefault: see the error reported on this property") }"#,
			"set {}",
		]
		return binding.initializer == nil ? accessors : ["init(initialValue) {}"] + accessors
	}

	/// Checks the attribute and the property; reports each misuse to `context` when `reporting`.
	private static func validate(
		_ node: AttributeSyntax,
		_ declaration: some DeclSyntaxProtocol,
		in context: some MacroExpansionContext,
		reporting: Bool
	) -> Property? {
		func reject(_ message: ObservableDefaultDiagnostic, at syntax: some SyntaxProtocol) -> Property? {
			if reporting {
				context.diagnose(Diagnostic(node: Syntax(syntax), message: message))
			}

			return nil
		}

		guard
			case .argumentList(let arguments) = node.arguments,
			let key = arguments.first?.expression
		else {
			return reject(.missingKey, at: node)
		}

		guard let variable = declaration.as(VariableDeclSyntax.self) else {
			return reject(.notAVariable, at: declaration)
		}

		// Without @ObservationIgnored, @Observable stores the property in a copy named `_name`
		// that keeps this attribute; expanding it there would only add errors to the one reported
		// on the property itself.
		if isObservationStorage(of: variable, in: context) {
			return nil
		}

		guard variable.bindingSpecifier.tokenKind == .keyword(.var) else {
			return reject(.notAVar, at: variable.bindingSpecifier)
		}

		guard variable.bindings.count == 1, let binding = variable.bindings.first else {
			return reject(.severalBindings, at: variable.bindings)
		}

		guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else {
			return reject(.notAVariable, at: binding.pattern)
		}

		if let initializer = binding.initializer {
			return reject(.hasInitializer, at: initializer)
		}

		if let accessors = binding.accessorBlock {
			return reject(.hasAccessors, at: accessors)
		}

		guard binding.typeAnnotation != nil else {
			return reject(.missingType, at: binding.pattern)
		}

		guard has("ObservationIgnored", variable) else {
			return reject(.missingObservationIgnored, at: node)
		}

		return Property(name: identifier.identifier.trimmed, key: key.trimmed)
	}

	private static func has(_ attribute: String, _ variable: VariableDeclSyntax) -> Bool {
		variable.attributes.contains { element in
			element.as(AttributeSyntax.self)?.attributeName.trimmedDescription == attribute
		}
	}

	private static func name(of variable: VariableDeclSyntax) -> String? {
		variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
	}

	/// Whether `variable` is the storage @Observable generated (`_name`, with this attribute copied) for a property that lacks @ObservationIgnored.
	private static func isObservationStorage(of variable: VariableDeclSyntax, in context: some MacroExpansionContext) -> Bool {
		guard name(of: variable)?.hasPrefix("_") == true,
			let location = context.location(of: variable, at: .afterLeadingTrivia, filePathMode: .fileID)
		else {
			return false
		}

		// The compiler names the source of a macro's expansion after the macro.
		return location.file.description.contains("ObservationTracked")
	}
}
