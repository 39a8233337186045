package dev.spanprofile.benchmarks.overhead.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application under load in the overhead benchmark: Spring MVC with Spring Boot's OpenTelemetry tracing and
 * the spanprofile starter, started in a JVM of its own by the benchmark, which passes every setting as an argument.
 */
@SpringBootApplication
public class BenchApplication {

	public static void main(String[] args) {
		SpringApplication.run(BenchApplication.class, args);
	}

}
