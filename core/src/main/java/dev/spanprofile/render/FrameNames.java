package dev.spanprofile.render;

/**
 * Shorter forms of {@code package.Class.method} frame names, for places too narrow for
 * the whole name.
 */
public final class FrameNames {

	private FrameNames() {
	}

	/**
	 * {@code Class.method}: the part a reader recognises. Names that are not Java methods
	 * come back unchanged.
	 */
	public static String shortName(String frame) {
		// Bracketed names are not methods: what a thread waited on ([socket read
		// 10.0.0.5:5432]) or a placeholder.
		if (frame.startsWith("[")) {
			return frame;
		}
		int paren = frame.indexOf('(');
		String name = (paren > 0) ? frame.substring(0, paren) : frame;
		int method = name.lastIndexOf('.');
		if (method <= 0) {
			return frame;
		}
		int type = name.lastIndexOf('.', method - 1);
		// A lambda's hidden class ends in its address (Outer$$Lambda.0x00007f...): keep
		// the outer class too.
		if (type > 0 && name.startsWith("0x", type + 1)) {
			type = name.lastIndexOf('.', type - 1);
		}
		return (type >= 0) ? frame.substring(type + 1) : frame;
	}

}
