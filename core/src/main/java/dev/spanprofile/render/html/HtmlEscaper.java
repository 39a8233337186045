package dev.spanprofile.render.html;

/**
 * Escapes text for HTML element content and quoted attribute values. Frame, span and
 * thread names come from the profiled application and its requests, so every one of them
 * goes through here.
 */
final class HtmlEscaper {

	private HtmlEscaper() {
	}

	static String escape(String text) {
		if (text == null) {
			return "";
		}
		StringBuilder out = null;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			String replacement = switch (c) {
				case '&' -> "&amp;";
				case '<' -> "&lt;";
				case '>' -> "&gt;";
				case '"' -> "&quot;";
				case '\'' -> "&#39;";
				default -> null;
			};
			if (replacement == null && Character.isISOControl(c) && c != '\n' && c != '\t') {
				replacement = "\uFFFD";
			}
			if (replacement != null) {
				if (out == null) {
					out = new StringBuilder(text.length() + 16).append(text, 0, i);
				}
				out.append(replacement);
			}
			else if (out != null) {
				out.append(c);
			}
		}
		return (out != null) ? out.toString() : text;
	}

}
