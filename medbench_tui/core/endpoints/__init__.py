"""OpenAI-compatible model endpoints: the client, the batch's plain chat requests, fitting a
request into the context, and how a failure is told."""
