package dev.spanprofile.render.html;

import java.util.List;
import java.util.Map;

/**
 * Writes the JSON embedded in a page's {@code <script type="application/json">} block.
 * Besides JSON's own escapes, {@code <}, {@code >} and {@code &} are written as
 * {@code \\u} escapes so that no name can close the block ({@code </script>}) or open a
 * comment, and U+2028/U+2029 so that the text stays valid JavaScript too.
 */
final class JsonText {

	private final StringBuilder out;

	JsonText(StringBuilder out) {
		this.out = out;
	}

	JsonText string(String value) {
		if (value == null) {
			this.out.append("null");
			return this;
		}
		this.out.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			switch (c) {
				case '"' -> this.out.append("\\\"");
				case '\\' -> this.out.append("\\\\");
				case '\n' -> this.out.append("\\n");
				case '\r' -> this.out.append("\\r");
				case '\t' -> this.out.append("\\t");
				default -> {
					if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
						this.out.append(String.format("\\u%04x", (int) c));
					}
					else {
						this.out.append(c);
					}
				}
			}
		}
		this.out.append('"');
		return this;
	}

	JsonText number(long value) {
		this.out.append(value);
		return this;
	}

	JsonText number(double value) {
		if (Double.isNaN(value) || Double.isInfinite(value)) {
			this.out.append("null");
		}
		else {
			this.out.append(value);
		}
		return this;
	}

	JsonText bool(boolean value) {
		this.out.append(value);
		return this;
	}

	/**
	 * A map, list, string, number, boolean or null, as JSON, maps and lists recursively.
	 */
	JsonText value(Object value) {
		if (value instanceof Map<?, ?> map) {
			this.out.append('{');
			boolean first = true;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				if (!first) {
					this.out.append(',');
				}
				first = false;
				key(String.valueOf(entry.getKey())).value(entry.getValue());
			}
			this.out.append('}');
		}
		else if (value instanceof List<?> list) {
			this.out.append('[');
			for (int i = 0; i < list.size(); i++) {
				if (i > 0) {
					this.out.append(',');
				}
				value(list.get(i));
			}
			this.out.append(']');
		}
		else if (value instanceof Double || value instanceof Float) {
			number(((Number) value).doubleValue());
		}
		else if (value instanceof Number number) {
			number(number.longValue());
		}
		else if (value instanceof Boolean bool) {
			bool(bool);
		}
		else {
			string((value != null) ? value.toString() : null);
		}
		return this;
	}

	JsonText raw(char c) {
		this.out.append(c);
		return this;
	}

	JsonText key(String key) {
		string(key);
		this.out.append(':');
		return this;
	}

}
