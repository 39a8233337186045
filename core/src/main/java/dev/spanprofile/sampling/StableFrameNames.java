package dev.spanprofile.sampling;

import java.util.regex.Pattern;

/**
 * Frame names without what differs from one JVM to the next: the counter and address of a
 * lambda or other hidden class
 * ({@code PaymentService$$Lambda$1634.0x00007f1ecc5f8838.get} is
 * {@code PaymentService$$Lambda.get}), the number of a generated reflection accessor or
 * proxy, the random suffix of an extracted native library. The same code must give the
 * same frame on every instance and after every restart: otherwise a fleet's merged
 * profile splits one stack per pod, and a diff of two runs shows the same lambda as gone
 * and new.
 */
final class StableFrameNames {

	/** {@code $$Lambda$1634} (JDK 17) loses its counter. */
	private static final Pattern LAMBDA_COUNTER = Pattern.compile("(\\$\\$Lambda)\\$\\d+");

	/**
	 * A hidden class's address, after a dot or a slash:
	 * {@code $$Lambda.0x00007f1ecc5f8838}, {@code LambdaForm$MH/0x0000000800c03000}.
	 */
	private static final Pattern HIDDEN_CLASS_ADDRESS = Pattern.compile("[./]0x[0-9a-fA-F]+");

	/**
	 * {@code GeneratedMethodAccessor123}, {@code $Proxy42}: numbered in the order the JVM
	 * made them.
	 */
	private static final Pattern GENERATED_NUMBER = Pattern.compile(
			"(GeneratedMethodAccessor|GeneratedConstructorAccessor|GeneratedSerializationConstructorAccessor|\\$Proxy)\\d+");

	/** {@code libasyncProfiler-5074426373574794542.so}: extracted under a random name. */
	private static final Pattern EXTRACTED_LIBRARY = Pattern.compile("^(lib[\\w]+)-\\d{6,}(\\.so|\\.dylib)");

	private StableFrameNames() {
	}

	static String of(String name) {
		if (name.indexOf('$') < 0 && name.indexOf("0x") < 0 && !name.startsWith("lib")
				&& name.indexOf("Generated") < 0) {
			return name;
		}
		String stable = LAMBDA_COUNTER.matcher(name).replaceAll("$1");
		stable = HIDDEN_CLASS_ADDRESS.matcher(stable).replaceAll("");
		stable = GENERATED_NUMBER.matcher(stable).replaceAll("$1");
		return EXTRACTED_LIBRARY.matcher(stable).replaceFirst("$1$2");
	}

}
