package dev.spanprofile.view;

import java.util.Map;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * A view's JSON body as the endpoint's client reads it: written by Jackson, read back as
 * maps and lists.
 */
final class JsonBodies {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private JsonBodies() {
	}

	static String text(Object body) {
		return JSON.writeValueAsString(body);
	}

	static Map<String, Object> map(Object body) {
		return JSON.convertValue(body, new TypeReference<Map<String, Object>>() {
		});
	}

}
