package dev.spanprofile.benchmarks.overhead.app;

import dev.spanprofile.benchmarks.overhead.pages.CoreWaitSwitch;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;

/**
 * The application under load in the overhead benchmark: Spring MVC with Spring Boot's
 * OpenTelemetry tracing and the spanprofile starter, started in a JVM of its own by the
 * benchmark, which passes every setting as an argument.
 */
// The benchmarks' classpath also holds JPA for the page application: no database here, so
// no per-request open-entity-manager interceptor either.
@SpringBootApplication(excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Import(CoreWaitSwitch.class)
public class BenchApplication {

	public static void main(String[] args) {
		SpringApplication.run(BenchApplication.class, args);
	}

}
