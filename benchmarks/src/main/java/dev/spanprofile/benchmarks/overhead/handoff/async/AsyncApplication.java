package dev.spanprofile.benchmarks.overhead.handoff.async;

import dev.spanprofile.benchmarks.overhead.handoff.PropagationSwitch;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableAsync;

/**
 * A Spring MVC application whose requests hand their work to an {@code @Async} method on
 * Spring Boot's own task executor, for what carrying the request's context to that
 * executor's threads costs ({@code spring.task.execution.propagate-context}, which the
 * starter turns on where the application has not set it).
 */
@EnableAsync
@Import(PropagationSwitch.class)
@SpringBootApplication(excludeName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
public class AsyncApplication {

	public static void main(String[] args) {
		SpringApplication.run(AsyncApplication.class, args);
	}

}
