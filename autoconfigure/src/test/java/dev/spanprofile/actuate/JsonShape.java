package dev.spanprofile.actuate;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape of a JSON body: its field names, in order, and the type of each value, with
 * no values. Golden shapes live in
 * {@code src/test/resources/dev/spanprofile/actuate/golden}, one per body type, so that
 * renaming, removing, adding or retyping a field of a served body fails a test that names
 * the file to review.
 * <p>
 * A shape is JSON itself: {@code "string"}, {@code "number"}, {@code "boolean"} for
 * scalars; an object of shapes; an array holding the shape of every element merged. A
 * field name ending in {@code ?} may be absent; a value {@code null} in a body matches
 * any type; a list with no elements matches any element shape; an object whose only field
 * is {@code *} is a map keyed by data, each value of that shape. Below {@link #MAX_DEPTH}
 * levels (a flame graph's deeper nodes) nothing is compared.
 */
final class JsonShape {

	static final int MAX_DEPTH = 8;

	private static final JsonMapper mapper = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

	private JsonShape() {
	}

	/**
	 * Asserts that {@code body} has the golden shape {@code golden}; with
	 * {@code -Dspanprofile.golden.write=
	 *
	<dir>
	 * } writes the shape there instead, to review and copy over the old one when a change
	 * of the contract is meant.
	 */
	static void assertMatchesGolden(String body, String golden) {
		JsonNode actual = read(body);
		String write = System.getProperty("spanprofile.golden.write");
		if (write != null) {
			writeShape(Path.of(write, golden), shapeOf(actual, 0));
			return;
		}
		String resource = "golden/" + golden;
		try (var in = JsonShape.class.getResourceAsStream(resource)) {
			assertThat(in).as("golden shape %s", resource).isNotNull();
			List<String> problems = differences(new String(in.readAllBytes(), StandardCharsets.UTF_8), body);
			assertThat(problems)
				.as("the body's differences from golden shape %s (if the change is meant, write "
						+ "the shapes anew with -Dspanprofile.golden.write=<dir> and review them)", resource)
				.isEmpty();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Where {@code body} departs from the shape {@code golden}, one line each. */
	static List<String> differences(String golden, String body) {
		List<String> problems = new ArrayList<>();
		compare(read(golden), read(body), "$", 0, problems);
		return problems;
	}

	private static JsonNode read(String body) {
		return mapper.readTree(body);
	}

	private static void writeShape(Path file, Object shape) {
		try {
			Files.createDirectories(file.getParent());
			Files.writeString(file, mapper.writeValueAsString(shape) + "\n", StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The shape of {@code node}: plain maps, lists and strings, for Jackson to write. */
	static Object shapeOf(JsonNode node, int depth) {
		if (depth >= MAX_DEPTH) {
			return "any";
		}
		if (node.isObject()) {
			Map<String, Object> shape = new LinkedHashMap<>();
			node.properties().forEach((field) -> shape.put(field.getKey(), shapeOf(field.getValue(), depth + 1)));
			return shape;
		}
		if (node.isArray()) {
			Object merged = null;
			for (JsonNode element : node) {
				merged = merge(merged, shapeOf(element, depth + 1));
			}
			return (merged != null) ? List.of(merged) : List.of();
		}
		return scalar(node);
	}

	private static String scalar(JsonNode node) {
		if (node.isNull()) {
			return "null";
		}
		if (node.isNumber()) {
			return "number";
		}
		if (node.isBoolean()) {
			return "boolean";
		}
		return "string";
	}

	/**
	 * Two elements' shapes as one: an object's fields in order of first appearance, those
	 * missing from one of them optional; a null takes the other's type.
	 */
	@SuppressWarnings("unchecked")
	private static Object merge(Object a, Object b) {
		if (a == null || "null".equals(a)) {
			return b;
		}
		if (b == null || "null".equals(b)) {
			return a;
		}
		if (a instanceof Map<?, ?> left && b instanceof Map<?, ?> right) {
			Map<String, Object> merged = new LinkedHashMap<>();
			Map<String, Object> l = optionalKeysAsPlain((Map<String, Object>) left);
			Map<String, Object> r = optionalKeysAsPlain((Map<String, Object>) right);
			for (Map.Entry<String, Object> field : l.entrySet()) {
				String key = field.getKey();
				boolean optional = !r.containsKey(key) || isOptional((Map<String, Object>) left, key)
						|| isOptional((Map<String, Object>) right, key);
				merged.put(optional ? key + "?" : key, merge(field.getValue(), r.get(key)));
			}
			for (Map.Entry<String, Object> field : r.entrySet()) {
				if (!l.containsKey(field.getKey())) {
					merged.put(field.getKey() + "?", field.getValue());
				}
			}
			return merged;
		}
		if (a instanceof List<?> left && b instanceof List<?> right) {
			Object element = merge(left.isEmpty() ? null : left.get(0), right.isEmpty() ? null : right.get(0));
			return (element != null) ? List.of(element) : List.of();
		}
		return a;
	}

	private static Map<String, Object> optionalKeysAsPlain(Map<String, Object> shape) {
		Map<String, Object> plain = new LinkedHashMap<>();
		shape.forEach((key, value) -> plain.put(key.endsWith("?") ? key.substring(0, key.length() - 1) : key, value));
		return plain;
	}

	private static boolean isOptional(Map<String, Object> shape, String plainKey) {
		return shape.containsKey(plainKey + "?");
	}

	private static void compare(JsonNode expected, JsonNode actual, String path, int depth, List<String> problems) {
		if (actual.isNull() || expected.isString() && expected.asString().equals("any")) {
			return;
		}
		if (expected.isObject()) {
			if (!actual.isObject()) {
				problems.add(path + ": an object expected, was " + scalar(actual));
				return;
			}
			compareFields(expected, actual, path, depth, problems);
		}
		else if (expected.isArray()) {
			if (!actual.isArray()) {
				problems.add(path + ": a list expected, was " + scalar(actual));
				return;
			}
			if (expected.isEmpty()) {
				if (!actual.isEmpty()) {
					problems.add(path + ": a list without elements expected");
				}
				return;
			}
			for (int i = 0; i < actual.size(); i++) {
				compare(expected.get(0), actual.get(i), path + "[" + i + "]", depth + 1, problems);
			}
		}
		else if (actual.isObject() || actual.isArray() || !expected.asString().equals(scalar(actual))) {
			problems.add(path + ": " + expected.asString() + " expected, was "
					+ (actual.isObject() ? "an object" : actual.isArray() ? "a list" : scalar(actual)));
		}
	}

	private static void compareFields(JsonNode expected, JsonNode actual, String path, int depth,
			List<String> problems) {
		if (expected.size() == 1 && expected.has("*")) {
			// A map keyed by data (events, categories): any key, each value of one shape.
			actual.properties()
				.forEach((field) -> compare(expected.get("*"), field.getValue(), path + "." + field.getKey(), depth + 1,
						problems));
			return;
		}
		List<String> expectedOrder = new ArrayList<>();
		Map<String, JsonNode> fields = new LinkedHashMap<>();
		Map<String, Boolean> optional = new LinkedHashMap<>();
		expected.properties().forEach((field) -> {
			String key = field.getKey();
			boolean isOptional = key.endsWith("?");
			String plain = isOptional ? key.substring(0, key.length() - 1) : key;
			expectedOrder.add(plain);
			fields.put(plain, field.getValue());
			optional.put(plain, isOptional);
		});
		List<String> actualOrder = new ArrayList<>();
		actualOrder.addAll(actual.propertyNames());
		for (String key : actualOrder) {
			if (!fields.containsKey(key)) {
				problems.add(path + "." + key + ": not in the golden shape");
			}
		}
		for (String key : expectedOrder) {
			if (!actual.has(key) && !optional.get(key)) {
				problems.add(path + "." + key + ": missing");
			}
		}
		List<String> presentInOrder = expectedOrder.stream().filter(actual::has).toList();
		List<String> known = actualOrder.stream().filter(fields::containsKey).toList();
		if (!known.equals(presentInOrder)) {
			problems.add(path + ": fields in the order " + known + ", expected " + presentInOrder);
		}
		for (String key : known) {
			compare(fields.get(key), actual.get(key), path + "." + key, depth + 1, problems);
		}
	}

}
