"""Credential variables of well-known tools never reach a hook's environment.

Checked against real names (the tools' own documentation spells them so), through
``scrub_env`` and through ``agent-hooks run``: a command hook started by the CLI sees
none of them, and still sees what hooks need. Decisions taken here: a variable that
names where a credential is kept (``GOOGLE_APPLICATION_CREDENTIALS``, ``PGPASSFILE``,
``NETRC``, ``KUBECONFIG``, ``KEY_PATH``, ``PASSWD_FILE``) is withheld like the
credential; ``DATABASE_URL``-style variables are judged by their value (a URL with
``user:password@``); ``SSH_AUTH_SOCK`` (a socket path, the keys stay in the agent) and
``OLDPWD`` pass; ``JWT_*`` names are withheld whatever they hold.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from agent_hooks._handlers._process import scrub_env

CREDENTIAL_NAMES = (
    # cloud providers
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_ACCESS_KEY_ID",
    "AZURE_CLIENT_SECRET",
    "AZURE_STORAGE_KEY",
    "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_SAS_TOKEN",
    "AZURE_DEVOPS_EXT_PAT",
    "AZURE_OPENAI_API_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "GOOGLE_API_KEY",
    "CLOUDSDK_AUTH_ACCESS_TOKEN_FILE",
    "DIGITALOCEAN_ACCESS_TOKEN",
    "CLOUDFLARE_API_TOKEN",
    "HEROKU_API_KEY",
    "VERCEL_TOKEN",
    "NETLIFY_AUTH_TOKEN",
    "FIREBASE_TOKEN",
    "SUPABASE_SERVICE_ROLE_KEY",
    # forges, registries, CI
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "GH_ENTERPRISE_TOKEN",
    "HOMEBREW_GITHUB_API_TOKEN",
    "CR_PAT",
    "GITLAB_TOKEN",
    "CI_JOB_TOKEN",
    "NPM_TOKEN",
    "NODE_AUTH_TOKEN",
    "PYPI_API_TOKEN",
    "TWINE_PASSWORD",
    "CARGO_REGISTRY_TOKEN",
    "GEM_HOST_API_KEY",
    "NUGET_API_KEY",
    "DOCKER_AUTH_CONFIG",
    "DOCKER_PASSWORD",
    "ARTIFACTORY_API_KEY",
    "CODECOV_TOKEN",
    "COVERALLS_REPO_TOKEN",
    "SONAR_TOKEN",
    "SNYK_TOKEN",
    "CIRCLE_TOKEN",
    "BUILDKITE_AGENT_TOKEN",
    "TF_TOKEN_app_terraform_io",
    # databases and caches
    "MYSQL_PWD",
    "MYSQL_PASSWORD",
    "MARIADB_ROOT_PASSWORD",
    "PGPASSWORD",
    "PGPASSFILE",
    "POSTGRES_PASSWORD",
    "REDIS_PASS",
    "REDIS_PASSWORD",
    "REDISCLI_AUTH",
    "RABBITMQ_DEFAULT_PASS",
    "ELASTIC_PASSWORD",
    "MINIO_ROOT_PASSWORD",
    "MINIO_SECRET_KEY",
    # web sessions and application secrets
    "JWT",
    "JWT_SECRET",
    "COOKIE",
    "SESSION_COOKIE",
    "SESSION_SECRET",
    "SECRET_KEY_BASE",
    "DJANGO_SECRET_KEY",
    "RAILS_MASTER_KEY",
    "OAUTH_CLIENT_SECRET",
    "AUTH0_CLIENT_SECRET",
    "REFRESH_TOKEN",
    "ACCESS_TOKEN",
    "BEARER_TOKEN",
    "apiKey",
    # machines, keys, mail
    "NETRC",
    "KUBECONFIG",
    "SSH_PRIVATE_KEY",
    "GPG_PASSPHRASE",
    "SMTP_PASS",
    "SMTP_PASSWORD",
    "LDAP_BIND_PASSWORD",
    "VAULT_TOKEN",
    "CONSUL_HTTP_TOKEN",
    "OP_SERVICE_ACCOUNT_TOKEN",
    # services and model providers
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "MISTRAL_API_KEY",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
    "REPLICATE_API_TOKEN",
    "LANGSMITH_API_KEY",
    "WANDB_API_KEY",
    "PINECONE_API_KEY",
    "SLACK_BOT_TOKEN",
    "SLACK_WEBHOOK_URL",
    "STRIPE_SECRET_KEY",
    "SENTRY_DSN",
    "SENTRY_AUTH_TOKEN",
    "DD_API_KEY",
    "DD_APP_KEY",
    "NEW_RELIC_LICENSE_KEY",
    "TWILIO_AUTH_TOKEN",
    "SENDGRID_API_KEY",
    # where a credential is kept: withheld like the credential
    "KEY_PATH",
    "PASSWD_FILE",
)

PLAIN_NAMES = (
    "PATH",
    "HOME",
    "LANG",
    "TERM",
    "SHELL",
    "USER",
    "PWD",
    "OLDPWD",
    "TMPDIR",
    "CLAUDE_PROJECT_DIR",
    "CLAUDE_ENV_FILE",
    "SSH_AUTH_SOCK",
    "SSH_CONNECTION",
    "TOKENIZERS_PARALLELISM",
    "TWINE_USERNAME",
    "DATABASE_URL",  # judged by its value (below)
    "MONGODB_URI",
    "EDITOR",
    "PAGER",
    "GIT_AUTHOR_NAME",
    "GIT_COMMITTER_EMAIL",
    "XAUTHORITY",
    "KEYBOARD",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "NODE_ENV",
    "GOPATH",
    "GOPRIVATE",
    "JAVA_HOME",
    "DISPLAY",
    "HOSTNAME",
    "AWS_REGION",
    "AWS_PROFILE",
    "CI",
    "GITHUB_ACTIONS",
    "GITHUB_REPOSITORY",
    "GITHUB_SHA",
    "COOKIECUTTER_CONFIG",
    "SESSIONNAME",
    "DBUS_SESSION_BUS_ADDRESS",
    "XDG_RUNTIME_DIR",
    "LC_ALL",
)


def test_the_lists_are_long_enough_to_mean_something() -> None:
    assert len(CREDENTIAL_NAMES) >= 60
    assert not set(CREDENTIAL_NAMES) & set(PLAIN_NAMES)


@pytest.mark.parametrize("name", CREDENTIAL_NAMES)
def test_credential_names_are_withheld(name: str) -> None:
    assert scrub_env({name: "value", "HOME": "/root"}) == {"HOME": "/root"}


@pytest.mark.parametrize("name", PLAIN_NAMES)
def test_plain_names_pass(name: str) -> None:
    assert scrub_env({name: "/some/value"}) == {name: "/some/value"}


def test_a_url_with_a_password_is_withheld_whatever_its_name() -> None:
    env = {
        "DATABASE_URL": "postgres://app:hunter2@db/prod",
        "MONGODB_URI": "mongodb+srv://u:p@cluster0.example.net/db",
        "CACHE": "redis://:pw@cache:6379",
        "PLAIN_DB": "postgres://db/prod",
    }
    assert scrub_env(env) == {"PLAIN_DB": "postgres://db/prod"}


def test_a_hook_run_by_the_cli_sees_none_of_them(tmp_path: Path) -> None:
    out = tmp_path / "env.json"
    code = "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'))"
    argv = [sys.executable, "-c", code, str(out)]
    hooks = tmp_path / "hooks.json"
    hooks.write_text(
        json.dumps(
            {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": shlex.join(argv)}]}]}}
        )
    )
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "SYSTEMROOT", "PYTHONPATH")}
    env.update({name: "credential-value" for name in CREDENTIAL_NAMES})
    env.update({name: "plain-value" for name in PLAIN_NAMES if name not in env})
    env["HOME"] = str(tmp_path)
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["AGENT_HOOKS_NO_DAEMON"] = "1"
    env["DATABASE_URL"] = "postgres://app:hunter2@db/prod"
    payload = {"hook_event_name": "Stop", "session_id": "s", "cwd": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "agent_hooks", "run", "--config", str(hooks)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(out.read_text())
    assert sorted(set(CREDENTIAL_NAMES) & set(seen)) == []
    assert "DATABASE_URL" not in seen
    assert "credential-value" not in seen.values()
    for name in ("PATH", "HOME", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM", "OLDPWD"):
        assert name in seen, name
