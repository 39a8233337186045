package dev.spanprofile.actuate;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a golden shape lets through and what it catches: the comparison the golden body
 * tests rely on.
 */
class JsonShapeTests {

	private static final String GOLDEN = """
			{"spanId": "string", "durationMillis": "number", "note?": "string",
			 "samplesByEvent": {"*": "number"}, "spans": [{"name": "string", "children?": "any"}]}
			""";

	@Test
	void aBodyOfTheShapeMatchesWhateverItsValues() {
		assertThat(JsonShape.differences(GOLDEN, """
				{"spanId": "00f067aa0ba902b7", "durationMillis": 12.5, "samplesByEvent": {"cpu": 3, "wall": 9},
				 "spans": [{"name": "GET /", "children": [{"deep": true}]}, {"name": null}]}
				""")).isEmpty();
	}

	@Test
	void aRenamedFieldIsCaughtByBothNames() {
		assertThat(JsonShape.differences(GOLDEN, """
				{"spanId": "00f067aa0ba902b7", "durationMs": 12.5, "samplesByEvent": {}, "spans": []}
				""")).containsExactly("$.durationMs: not in the golden shape", "$.durationMillis: missing");
	}

	@Test
	void aRetypedFieldOrAReorderedOneIsCaught() {
		assertThat(JsonShape.differences(GOLDEN, """
				{"spanId": 7, "durationMillis": 1, "samplesByEvent": {"cpu": "3"}, "spans": [{"name": "a"}]}
				""")).containsExactly("$.spanId: string expected, was number",
				"$.samplesByEvent.cpu: number expected, " + "was string");
		assertThat(JsonShape.differences(GOLDEN, """
				{"durationMillis": 1, "spanId": "a", "samplesByEvent": {}, "spans": []}
				""")).singleElement().asString().startsWith("$: fields in the order [durationMillis, spanId");
	}

	@Test
	void aFieldInAListsElementsIsComparedInEveryElement() {
		assertThat(JsonShape.differences(GOLDEN, """
				{"spanId": "a", "durationMillis": 1, "samplesByEvent": {}, "spans": [{"name": "a"}, {"title": "b"}]}
				""")).containsExactly("$.spans[1].title: not in the golden shape", "$.spans[1].name: missing");
	}

}
