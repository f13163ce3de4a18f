"""Messages of accounts deleted before the chat renamed them (chat.receivers) still
carry the username, which another may take since. Their account is gone (``user`` is
null), and a username has no space nor brackets, so what is neither a guest's name
("Ann (guest)") nor the names of the nameless ("Guest", "Watcher") was an account's."""

from django.db import migrations
from django.db.models import Q


def rename_deleted_accounts(apps, schema_editor):
    Message = apps.get_model("chat", "Message")
    guests = Q(name__endswith=" (guest)") | Q(name__in=["Guest", "Watcher", "deleted player"])
    Message.objects.filter(user=None).exclude(guests).update(name="deleted player")


class Migration(migrations.Migration):
    dependencies = [("chat", "0001_initial")]

    operations = [migrations.RunPython(rename_deleted_accounts, migrations.RunPython.noop)]
