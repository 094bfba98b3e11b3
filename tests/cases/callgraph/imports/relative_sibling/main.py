from app.service import handle

handle()
