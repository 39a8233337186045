package dev.spanprofile.actuate;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoint's operations stay readable: a handful of parameters each, the flame
 * graphs' query parameters bound as one record.
 */
class SpanProfileEndpointOperationsTests {

	@Test
	void noOperationTakesMoreThanSixParameters() {
		Map<String, Integer> parameters = Arrays.stream(SpanProfileEndpoint.class.getDeclaredMethods())
			.filter((method) -> method.isAnnotationPresent(ReadOperation.class)
					|| method.isAnnotationPresent(WriteOperation.class)
					|| method.isAnnotationPresent(DeleteOperation.class))
			.collect(Collectors.toMap(Method::getName, Method::getParameterCount));
		assertThat(parameters).containsOnlyKeys("spans", "flameGraph", "spanName", "configure", "cancelCaptures")
			.allSatisfy((operation, count) -> assertThat(count).as(operation).isLessThanOrEqualTo(6));
	}

	@Test
	void aRepeatedQueryParameterIsItsValuesJoinedByCommas() {
		ProfileParameters query = ProfileParameters
			.of(Map.of("event", java.util.List.of("cpu", "wall"), "window", "15m", "unknown", "x"));
		assertThat(query.event()).isEqualTo("cpu,wall");
		assertThat(query.window()).isEqualTo("15m");
		assertThat(query.format()).isNull();
	}

}
